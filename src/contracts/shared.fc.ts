/**
 * FunC every contract here starts with: send modes, the excesses opcode, StateInit and address arithmetic, and
 * reading an inbound message's header. Kept in one place so that a master, a collection and their wallets or items
 * compute addresses the same way.
 */
export const SHARED_FUNC = `
;; send modes
const int mode::pay_fees_apart = 1;
const int mode::ignore_errors = 2;
const int mode::carry_inbound_value = 64;

;; excesses#d53276db query_id:uint64 (TEP-74; NFT items send it too, TEP-62)
const int op::excesses = 0xd53276db;

const int error::not_owner = 705;
const int error::not_enough_value = 709;
const int error::bad_payload = 708;
const int error::unknown_op = 0xffff;

;; StateInit with code and data only (no split depth, no special, no libraries)
cell state_init_of(cell code, cell data) inline {
  return begin_cell().store_uint(0, 2).store_dict(code).store_dict(data).store_uint(0, 1).end_cell();
}

;; addr_std, no anycast, workchain 0
slice basechain_address_of(cell state_init) inline {
  return begin_cell().store_uint(4, 3).store_int(0, 8).store_uint(cell_hash(state_init), 256).end_cell().begin_parse();
}

int is_addr_none?(slice address) inline {
  return address.preload_uint(2) == 0;
}

;; the forwarding fee the inbound message paid, from its header: the next hop costs about as much
int inbound_fwd_fee(cell in_msg_full) inline {
  slice cs = in_msg_full.begin_parse();
  cs~skip_bits(4);  ;; int_msg_info$0 ihr_disabled bounce bounced
  cs~load_msg_addr(); ;; src
  cs~load_msg_addr(); ;; dest
  cs~load_coins();    ;; value
  cs~skip_bits(1);    ;; extra currencies (empty dict)
  cs~load_coins();    ;; ihr_fee
  return cs~load_coins();
}

;; the sender of an internal message, and whether the message is a bounce
(slice, int) sender_and_bounced(cell in_msg_full) inline {
  slice cs = in_msg_full.begin_parse();
  int flags = cs~load_uint(4);
  return (cs~load_msg_addr(), flags & 1);
}

;; a message with its body in a ref; bounceable or not
() send_body(slice to, int value, cell body, int bounceable?, int mode) impure inline {
  send_raw_message(begin_cell()
    .store_uint(bounceable? ? 0x18 : 0x10, 6).store_slice(to).store_coins(value)
    .store_uint(1, 1 + 4 + 4 + 64 + 32 + 1 + 1).store_ref(body)
    .end_cell(), mode);
}

;; a message deploying (or reaching) the contract of state_init at its basechain address, body in a ref
() send_deploy(cell state_init, int value, cell body, int mode) impure inline {
  send_raw_message(begin_cell()
    .store_uint(0x18, 6).store_slice(basechain_address_of(state_init)).store_coins(value)
    .store_uint(4 + 2 + 1, 1 + 4 + 4 + 64 + 32 + 1 + 1 + 1).store_ref(state_init).store_ref(body)
    .end_cell(), mode);
}

() send_excesses(slice to, int value, int query_id, int mode) impure inline {
  send_raw_message(begin_cell()
    .store_uint(0x10, 6).store_slice(to).store_coins(value)
    .store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).store_uint(op::excesses, 32).store_uint(query_id, 64)
    .end_cell(), mode);
}
`;
