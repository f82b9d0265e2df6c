import type { HarnessName } from '../../shared/harnesses.js';
import type { EvalMode } from '../eval/run/record.js';
import type { EvalColumn } from '../eval/run/scheduler.js';
import type { EvalFlags } from './eval-command.js';
import { EvalRefusal } from './eval-refusal.js';

/** The eval's columns and the flags each column's runs get. */
export interface EvalColumns {
  columns: EvalColumn[];
  columnArgs: (column: EvalColumn) => string[];
}

/**
 * Step 2 of `deskpilot eval`: the columns — each --profile, or the ad-hoc model, × each
 * --harness; the reference modes have one column per harness and run no model. Each
 * model is resolved now, with its key, so a column that cannot run is refused once,
 * before any task starts, not once per task. Throws EvalRefusal.
 */
export async function evalColumns(mode: EvalMode, flags: EvalFlags, home: string): Promise<EvalColumns> {
  // A column's harness: a name from --harness (passed on to each run), or "default" (the family's own, no flag).
  const harnesses: Array<HarnessName | 'default'> = flags.harness?.length ? flags.harness : ['default'];
  if (mode !== 'model') return { columns: harnesses.map((harness) => ({ profile: mode, provider: 'none', model: 'none', harness })), columnArgs: () => [] };
  // Loaded only for a model's eval: the providers' modules cost ~1 s of CPU to load (~3 s at a
  // load of 14 on 2 cores), which the reference and anti-reference modes never use.
  const [{ ConfigError, loadConfig }, { resolveRunChoices }, { resolveApiKey }] = await Promise.all([import('../config/index.js'), import('../agent/index.js'), import('../agent/providers/index.js')]);
  const configErrorsRefused = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof ConfigError) throw new EvalRefusal(error.message);
      throw error;
    }
  };
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = await loadConfig(home);
  } catch (error) {
    if (error instanceof ConfigError) throw new EvalRefusal(error.message);
    throw error;
  }
  const adHoc = { provider: flags.provider, model: flags.model, baseUrl: flags.baseUrl, apiKeyEnv: flags.apiKeyEnv };
  const setups = flags.profile?.length ? flags.profile.map((name) => ({ name, choices: { profile: name } })) : [{ name: '(flags)', choices: adHoc }];
  const columns: EvalColumn[] = [];
  for (const setup of setups) {
    const profile = configErrorsRefused(() => {
      const chosen = resolveRunChoices(config, setup.choices).profile;
      // Each harness through the same resolver its runs will meet: one the provider cannot carry is refused now, not per task.
      for (const harness of harnesses) if (harness !== 'default') resolveRunChoices(config, { ...setup.choices, harness });
      return chosen;
    });
    // A missing key would make every task an error, one by one: say it once, now.
    const { apiKey, envName } = resolveApiKey(profile);
    if (!apiKey) throw new EvalRefusal(`no API key for ${setup.name === '(flags)' ? profile.provider : `profile ${setup.name}`}: set ${envName ?? 'the API key variable'} (or name another with --api-key-env)`);
    for (const harness of harnesses) columns.push({ profile: setup.name, provider: profile.provider, model: profile.model, harness });
  }
  const columnArgs = (column: EvalColumn) => [
    ...(column.profile === '(flags)'
      ? [
          ...(adHoc.provider ? ['--provider', adHoc.provider] : []),
          ...(adHoc.model ? ['--model', adHoc.model] : []),
          ...(adHoc.baseUrl ? ['--base-url', adHoc.baseUrl] : []),
          ...(adHoc.apiKeyEnv ? ['--api-key-env', adHoc.apiKeyEnv] : []),
        ]
      : ['--profile', column.profile]),
    ...(column.harness !== 'default' ? ['--harness', column.harness] : []),
  ];
  return { columns, columnArgs };
}
