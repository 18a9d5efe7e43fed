/**
 * The workchain ids and the shard prefix every layer names blocks with: the masterchain (-1), the basechain (0)
 * and the shard id of a whole, unsplit workchain (the top bit alone: no prefix bits, then the tag bit).
 */
export const MASTERCHAIN = -1;
export const BASECHAIN = 0;
export const WHOLE_SHARD = 0x8000000000000000n;
