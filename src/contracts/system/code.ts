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
  'te6cckECFAEAAkoAART/APSkE/S88sgLAQIBYgIHAmjQAdDTAwFxsCLXScFgsZJfBOD6QDAg+kQD0x/TPyKCEE5zdEu64wIwIYIQR2V0JLrjAl8HAwUB/jI2AcP/JIIQO5rKALmxASDXSYECQLkh10rBAbGSMHCY10zQ10mDCL7is7GONmwhcIIQ7m9FTCEQNEEwgEBwgBDIywVQB88WUAX6AhXLahLLH8s/IsL/lBLLHwGRMuIByQH7AODtRND0BPQEUxQBgwf0Dm+hk/oAMJIwcOJQBqAEAK6CEDuaygChyAH6AsnQQESDB/QWUAMCyPQA9AABzxbJ7VQBghA7msoAghDzdEhMWHBycIAQyMsFUAfPFlAF+gIVy2oSyx/LPyLC/5QSyx8BkTLiAckB+wAB/O1E0PQE9ARTFwGDB/QOb6GT+gAwkjBw4gbD/ybAALGONV8DMmwzcIIQ/////lqAQHCAEMjLBVAHzxZQBfoCFctqEssfyz8iwv+UEssfAZEy4gHJAfsA4DRQh6FSMLYIUwO5n8hRQaEU+gLJ0EBWgwf0FpozUEWDB/RbMBA04gYAfEUEAsj0APQAAc8Wye1UghD5b3MkAX+AQHCAEMjLBVAHzxZQBfoCFctqEssfyz8iwv+UEssfAZEy4gHJAfsAAgEgCA8CASAJCgAHu+lm2AICcgsOAgFqDA0ABbh3CAARuqcFRwAG1TEYAAirLDBwAgEgEBEAB7mHVtgCAVgSEwAHsKVbYAA3s+A7UTQ9AT0BDAxAQGDB/QOb6GT+gAwkjBw4oPjNQtk=';

let config: Cell | undefined;
let elector: Cell | undefined;
export const configContractCode = (): Cell => (config ??= Cell.fromBase64(CONFIG_CONTRACT_CODE_BOC));
export const electorCode = (): Cell => (elector ??= Cell.fromBase64(ELECTOR_CODE_BOC));
