/**
 * The blockchain config and shared libraries. A local chain serves the config its config contract held as of
 * `seqno` (POST /devnet/config changes it); `seqno` is checked first, so an unknown block is a 404 as elsewhere.
 * Libraries: a local chain's are its masterchain accounts' public ones.
 */
import { Dictionary, type Cell } from '@ton/core';
import { bocBase64 } from '../../../ton/boc.js';
import { formatHash } from '../../../ton/hash.js';
import { ApiError } from '../../../http/api-error.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { defineMethod } from '../method.js';
import { findMasterchainBlock } from './block-lookup.js';
import { SEQNO_OPTIONAL } from './common-params.js';

/** Parsed config dictionaries, per config cell (a chain hands out the same cell every time). */
const parsed = new WeakMap<Cell, Dictionary<number, Cell>>();

function configParams(config: Cell): Dictionary<number, Cell> {
  let dict = parsed.get(config);
  if (!dict) {
    dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
    parsed.set(config, dict);
  }
  return dict;
}

async function configAt(network: NetworkContext, seqno: number | undefined): Promise<Cell> {
  if (seqno !== undefined) await findMasterchainBlock(network, seqno);
  return network.chain.config(seqno);
}

export const getConfigParam = defineMethod({
  name: 'getConfigParam',
  verbs: ['GET', 'POST'],
  summary: 'One config parameter as a cell (configInfo). `param` is accepted for config_id, as the C++ server does.',
  params: {
    config_id: { type: 'int', min: 0, description: 'Config parameter number.' },
    param: { type: 'int', min: 0, description: 'Same as config_id (give one of them).' },
    seqno: SEQNO_OPTIONAL,
  },
  async handle({ config_id, param, seqno }, network) {
    if ((config_id === undefined) === (param === undefined)) {
      throw new ApiError(
        422,
        config_id === undefined
          ? 'failed to parse parameter config_id: missing required parameter'
          : 'only one of config_id or param should be specified',
      );
    }
    const id = (config_id ?? param)!;
    const value = configParams(await configAt(network, seqno)).get(id);
    if (!value) throw new ApiError(404, `config param ${id} not found`);
    return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: bocBase64(value) } };
  },
});

export const getConfigAll = defineMethod({
  name: 'getConfigAll',
  verbs: ['GET', 'POST'],
  summary: 'The whole config dictionary as one cell (configInfo).',
  params: { seqno: SEQNO_OPTIONAL },
  async handle({ seqno }, network) {
    return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: bocBase64(await configAt(network, seqno)) } };
  },
});

export const getLibraries = defineMethod({
  name: 'getLibraries',
  verbs: ['GET', 'POST'],
  summary: 'Library cells by hash (smc.libraryResult); unknown hashes are left out.',
  params: { libraries: { type: 'hash[]', required: true, description: 'Library hashes: repeat the key, or separate them with commas.' } },
  async handle({ libraries }, network) {
    const found = await network.chain.libraries(libraries);
    return {
      '@type': 'smc.libraryResult',
      result: found.map((lib) => ({ '@type': 'smc.libraryEntry', hash: formatHash(lib.hash), data: bocBase64(lib.cell) })),
    };
  },
});
