/**
 * The FunC declarations tongate's own contracts are written against: each is one TVM instruction (or a short
 * sequence) named as FunC programmers know it. Written here from the TVM instruction set rather than taken from
 * any public stdlib, and kept to what the contracts in this folder use; add a line when a contract needs one.
 * Prefixed to every contract source before it is compiled (test/support/func.ts).
 */
export const FUNC_STDLIB = `
;; cells and builders
builder begin_cell() asm "NEWC";
cell end_cell(builder b) asm "ENDC";
builder store_ref(builder b, cell c) asm(c b) "STREF";
builder store_slice(builder b, slice s) asm "STSLICER";
builder store_builder(builder to, builder from) asm "STBR";
builder store_coins(builder b, int x) asm "STVARUINT16";
builder store_grams(builder b, int x) asm "STVARUINT16";
builder store_dict(builder b, cell c) asm(c b) "STDICT";
builder store_maybe_ref(builder b, cell c) asm(c b) "STOPTREF";
int builder_bits(builder b) asm "BBITS";
int builder_refs(builder b) asm "BREFS";

;; slices
slice begin_parse(cell c) asm "CTOS";
() end_parse(slice s) impure asm "ENDS";
(slice, cell) load_ref(slice s) asm(-> 1 0) "LDREF";
cell preload_ref(slice s) asm "PLDREF";
(slice, int) load_coins(slice s) asm(-> 1 0) "LDVARUINT16";
(slice, int) load_grams(slice s) asm(-> 1 0) "LDVARUINT16";
(slice, slice) load_msg_addr(slice s) asm(-> 1 0) "LDMSGADDR";
(slice, cell) load_dict(slice s) asm(-> 1 0) "LDDICT";
cell preload_dict(slice s) asm "PLDDICT";
(slice, cell) load_maybe_ref(slice s) asm(-> 1 0) "LDOPTREF";
cell preload_maybe_ref(slice s) asm "PLDOPTREF";
slice skip_bits(slice s, int len) asm "SDSKIPFIRST";
(slice, ()) ~skip_bits(slice s, int len) asm "SDSKIPFIRST";
slice first_bits(slice s, int len) asm "SDCUTFIRST";
int slice_bits(slice s) asm "SBITS";
int slice_refs(slice s) asm "SREFS";
int slice_empty?(slice s) asm "SEMPTY";
int slice_data_empty?(slice s) asm "SDEMPTY";
int slice_refs_empty?(slice s) asm "SREMPTY";
int equal_slices(slice a, slice b) asm "SDEQ";
(int, int) parse_std_addr(slice s) asm "REWRITESTDADDR";

;; hashes and signatures
int cell_hash(cell c) asm "HASHCU";
int slice_hash(slice s) asm "HASHSU";
int string_hash(slice s) asm "SHA256U";
int check_signature(int hash, slice signature, int public_key) asm "CHKSIGNU";

;; the contract's own state and context
cell get_data() asm "c4 PUSH";
() set_data(cell c) impure asm "c4 POP";
slice my_address() asm "MYADDR";
cell my_code() asm "MYCODE";
int now() asm "NOW";
int cur_lt() asm "LTIME";
[int, cell] get_balance() asm "BALANCE";
() accept_message() impure asm "ACCEPT";
() commit() impure asm "COMMIT";

;; actions
() send_raw_message(cell msg, int mode) impure asm "SENDRAWMSG";
() raw_reserve(int amount, int mode) impure asm "RAWRESERVE";
() set_code(cell new_code) impure asm "SETCODE";

;; dictionaries
(cell, int) udict_get_ref?(cell dict, int key_len, int index) asm(index dict key_len) "DICTUGETREF" "NULLSWAPIFNOT";
cell udict_set_ref(cell dict, int key_len, int index, cell value) asm(value index dict key_len) "DICTUSETREF";
(cell, ()) ~udict_set_ref(cell dict, int key_len, int index, cell value) asm(value index dict key_len) "DICTUSETREF";
(slice, int) udict_get?(cell dict, int key_len, int index) asm(index dict key_len) "DICTUGET" "NULLSWAPIFNOT";
cell udict_set(cell dict, int key_len, int index, slice value) asm(value index dict key_len) "DICTUSET";
(cell, ()) ~udict_set(cell dict, int key_len, int index, slice value) asm(value index dict key_len) "DICTUSET";
(cell, int) udict_delete?(cell dict, int key_len, int index) asm(index dict key_len) "DICTUDEL";
(cell, int, slice, int) udict_delete_get_min(cell dict, int key_len) asm(-> 0 2 1 3) "DICTUREMMIN" "NULLSWAPIFNOT2";
(int, slice, int) udict_get_next?(cell dict, int key_len, int pivot) asm(pivot dict key_len -> 1 0 2) "DICTUGETNEXT" "NULLSWAPIFNOT2";
(slice, int) dict_get?(cell dict, int key_len, slice key) asm(key dict key_len) "DICTGET" "NULLSWAPIFNOT";
(cell, ()) ~dict_set_builder(cell dict, int key_len, slice key, builder value) asm(value key dict key_len) "DICTSETB";
(cell, slice, slice, int) dict_delete_get_min(cell dict, int key_len) asm(-> 0 2 1 3) "DICTREMMIN" "NULLSWAPIFNOT2";
cell new_dict() asm "NEWDICT";
int dict_empty?(cell c) asm "DICTEMPTY";

;; tuples and null
forall X -> X null() asm "PUSHNULL";
forall X, Y -> tuple pair(X x, Y y) asm "PAIR";
forall X -> tuple cons(X head, tuple tail) asm "PAIR";
int min(int x, int y) asm "MIN";
int max(int x, int y) asm "MAX";
`;
