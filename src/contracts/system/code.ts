/**
 * The local chain's system contracts compiled (config.fc.ts, elector.fc.ts after stdlib.ts, with func-js), kept here
 * because every zero state holds them (src/chain/local/system-accounts.ts) and func-js is only a devDependency.
 * test/contracts/system-code.test.ts compiles the sources and checks they give exactly these BoCs: after a change to
 * a source, paste the BoCs that test prints.
 */
import { Cell } from '@ton/core';

export const CONFIG_CONTRACT_CODE_BOC =
  'te6cckEBCAEARwABFP8A9KQT9LzyyAsBAgEgAgcCAUgDBAAG0F8EAgFIBQYAHbs5ztRNDUMYAg1yHXC/+AAVuMl+1E0NQx1wsfgADPIwhA/y8CQFIp4=';

export const ELECTOR_CODE_BOC =
  'te6cckEBEAEAZAABFP8A9KQT9LzyyAsBAgFiAgMABtBfBAIBIAQLAgEgBQYAB7vpZtgCAnIHCgIBaggJAAW4dwgAEbqnBUcABtUxGAAIqywwcAIBIAwNAAe5h1bYAgFYDg8AB7ClW2AACbPgDBwgZXpAWw==';

let config: Cell | undefined;
let elector: Cell | undefined;
export const configContractCode = (): Cell => (config ??= Cell.fromBase64(CONFIG_CONTRACT_CODE_BOC));
export const electorCode = (): Cell => (elector ??= Cell.fromBase64(ELECTOR_CODE_BOC));
