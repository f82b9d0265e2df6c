export { createBridgeService, RECORDING_REFUSED, type BridgeServiceOptions } from './bridge-service.js';
export { BridgeError, type BridgeService, type ClientInfo, type RunHostingService, type SecretStore } from './types.js';
