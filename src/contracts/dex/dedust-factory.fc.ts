/**
 * A factory that answers DeDust's published factory get-method, `get_pool_address(int pool_type, slice asset0,
 * slice asset1)`, for pools of dedust-pool.fc.ts: the address of StateInit(pool code, pool data of this factory,
 * that type and those assets). Written from DeDust's documented layout, not from DeDust's code.
 *
 *   data: ^pool_code
 *   get_pool_address(int pool_type, slice asset0, slice asset1) -> slice (the pool's basechain address)
 *   messages: any inbound message is accepted and does nothing.
 */
import { SHARED_FUNC } from '../shared.fc.js';

export const DEDUST_FACTORY_FUNC =
  SHARED_FUNC +
  `
() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
}

slice get_pool_address(int pool_type, slice asset0, slice asset1) method_id {
  cell pool_code = get_data().begin_parse().preload_ref();
  cell pool_data = begin_cell()
    .store_slice(my_address())
    .store_uint(pool_type, 8)
    .store_ref(begin_cell().store_slice(asset0).end_cell())
    .store_ref(begin_cell().store_slice(asset1).end_cell())
    .end_cell();
  return basechain_address_of(state_init_of(pool_code, pool_data));
}
`;
