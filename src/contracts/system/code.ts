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
  'te6cckECFAEAAikAART/APSkE/S88sgLAQIBYgIHAmrQM9DTAwFxsCPXScFgsZJfA+D6QDAg+kQE0x/TPyKCEE5zdEu64wIwNCCCEEdldCS64wJfBQMFAfgyAsP/JIIQO5rKALmxASDXSYECQLkh10rBAbGSMHCY10zQ10mDCL7is7GONGwicIIQ7m9FTFQQIoBAcIAQyMsFUAfPFlAF+gIVy2oSyx/LPyLC/5QSyx8BkTLiAckB+wDg7UTQ9AT0BFMWAYMH9A5voZP6ADCSMHDiUAagBACsghA7msoAocgB+gLJ0EBmgwf0FkQDAsj0APQAAc8Wye1UghA7msoAghDzdEhMWHBycIAQyMsFUAfPFlAF+gIVy2oSyx/LPyLC/5QSyx8BkTLiAckB+wAB8O1E0PQE9ARTFwGDB/QOb6GT+gAwkjBw4gXD/yXAALGONhA0XwQzAnCCEP////5agEBwgBDIywVQB88WUAX6AhXLahLLH8s/IsL/lBLLHwGRMuIByQH7AOAzFoMH9FswRQACyPQA9AABzxbJ7VSCEPlvcyRDA3+AQAYATHCAEMjLBVAHzxZQBfoCFctqEssfyz8iwv+UEssfAZEy4gHJAfsAAgEgCA8CASAJCgAHu+lm2AICcgsOAgFqDA0ABbh3CAARuqcFRwAG1TEYAAirLDBwAgEgEBEAB7mHVtgCAVgSEwAHsKVbYAA3s+A7UTQ9AT0BDAxAQGDB/QOb6GT+gAwkjBw4oLaSeAs=';

let config: Cell | undefined;
let elector: Cell | undefined;
export const configContractCode = (): Cell => (config ??= Cell.fromBase64(CONFIG_CONTRACT_CODE_BOC));
export const electorCode = (): Cell => (elector ??= Cell.fromBase64(ELECTOR_CODE_BOC));
