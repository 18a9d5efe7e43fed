/** Every v2 method, in one list: the routes and the OpenAPI document are built from it. */
import type { V2Method } from '../method.js';
import { getMasterchainInfo } from './get-masterchain-info.js';

export const V2_METHODS: V2Method<any>[] = [getMasterchainInfo];
