/**
 * FunC shared by the DNS root collection and its items (TEP-81): record tags and categories, and how an item's
 * address follows from its domain. After the NFT common text (a DNS item is a TEP-62 item).
 */
import { NFT_COMMON_FUNC } from '../nft/common.fc.js';

export const DNS_COMMON_FUNC =
  NFT_COMMON_FUNC +
  `
;; change_dns_record#4eb1f0f9 query_id:uint64 key:uint256 and the record as a ref (no ref: delete)
const int op::change_dns_record = 0x4eb1f0f9;
const int op::deploy_domain = 1;
;; dns_next_resolver#ba93 resolver:MsgAddressInt
const int dns::next_resolver_tag = 0xba93;
const int dns::category_next_resolver = "dns_next_resolver"H;

const int error::not_bytes = 70;
const int error::bad_domain = 71;
const int error::zero_key = 66;

;; an item's StateInit: data index:uint256 collection:MsgAddress, index = sha256(domain)
cell domain_state_init(int index, slice collection, cell item_code) inline {
  return state_init_of(item_code, begin_cell().store_uint(index, 256).store_slice(collection).end_cell());
}

;; a domain component: non-empty bytes, none of them zero
int valid_domain?(slice domain) inline {
  if (domain.slice_bits() == 0) { return 0; }
  if (domain.slice_bits() % 8 != 0) { return 0; }
  while (~ domain.slice_data_empty?()) {
    if (domain~load_uint(8) == 0) { return 0; }
  }
  return -1;
}
`;
