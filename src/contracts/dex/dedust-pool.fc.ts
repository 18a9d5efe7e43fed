/**
 * A pool that answers DeDust's published pool get-method, `get_assets`, written from DeDust's documented layout, not
 * from DeDust's code. It trades nothing: it is what the index's DeDust pool detection (src/index/dex) reads.
 *
 *   data: factory:MsgAddress pool_type:uint8 ^asset0 ^asset1   (an asset: native$0000, or
 *         jetton$0001 workchain_id:int8 address:uint256, DeDust's Asset)
 *   get_assets() -> (slice asset0, slice asset1)
 *   messages: any inbound message is accepted and does nothing (a pool's balance can be topped up).
 */
import { SHARED_FUNC } from '../shared.fc.js';

export const DEDUST_POOL_FUNC =
  SHARED_FUNC +
  `
() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
}

(slice, slice) get_assets() method_id {
  slice ds = get_data().begin_parse();
  ds~load_msg_addr();
  ds~load_uint(8);
  return (ds~load_ref().begin_parse(), ds~load_ref().begin_parse());
}
`;
