export { startFakeModel, type FakeModelServer } from './server.js';
export type * from './types.js';
