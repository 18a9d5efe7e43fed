/**
 * The local chain's config contract (the address of config param 0), in FunC. Its data has the real config
 * contract's layout, `cfg_dict:^Cell seqno:uint32 public_key:uint256 vote_dict:(HashmapE 256 ...)`, because tools
 * read the config from it (blueprint's `NetworkProvider.getConfig()` parses the first reference of the data as the
 * config dictionary). It answers the real contract's read-only get-methods; it takes no votes and no external
 * messages: the config changes through `POST /devnet/config`, which rewrites this data in a block.
 */
export const CONFIG_CONTRACT_FUNC = `
() recv_internal(int balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  ;; Value sent here stays here; there is no proposal or vote to process.
}

() recv_external(slice in_msg) impure {
  ;; Config changes go through the devnet controls, never a signed external.
  throw(0xffff);
}

int seqno() method_id {
  slice ds = get_data().begin_parse();
  ds~load_ref();
  return ds.preload_uint(32);
}

int get_public_key() method_id {
  slice ds = get_data().begin_parse();
  ds~load_ref();
  ds~skip_bits(32);
  return ds.preload_uint(256);
}
`;
