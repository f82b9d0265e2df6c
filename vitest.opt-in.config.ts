import { configDefaults, defineConfig } from 'vitest/config';
import base, { OPT_IN } from './vitest.config.js';

/**
 * `npm run test:opt-in`: the tests CI leaves out (*.opt-in.*.test.ts), with the default's
 * pool and reporters. Spread, not mergeConfig: that concatenates arrays, and the default's
 * exclude holds OPT_IN.
 */
export default defineConfig({ ...base, test: { ...base.test, include: [OPT_IN], exclude: [...configDefaults.exclude] } });
