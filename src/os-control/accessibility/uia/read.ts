/**
 * Reading UI Automation trees on Windows: one PowerShell process runs UIA_DUMP (the .NET
 * UIAutomationClient, ControlViewWalker) and prints the windows as JSON; convert.ts maps
 * them. NOT YET RUN ON WINDOWS (see convert.ts): written from the UIA documentation.
 * The element's own actions (focus, set_value, invoke) are not offered here yet: a
 * Windows element action other than click answers `unsupported`.
 */
import { z } from 'zod';
import type { ElementTreeRequest, ElementTreeResult } from '../../../shared/elements.js';
import { run } from '../../exec.js';
import { toElementTree } from '../platform-tree.js';
import { UiaWindowSchema, uiaWindowToPlatform } from './convert.js';

/** The PowerShell dump: $MaxDepth, $Pattern ('' = the foreground window) and $All are set before it. */
export const UIA_DUMP = String.raw`
Add-Type -AssemblyName UIAutomationClient, UIAutomationTypes
Add-Type -Namespace DP -Name Win -MemberDefinition '[DllImport("user32.dll")] public static extern System.IntPtr GetForegroundWindow();'
$A = [System.Windows.Automation.AutomationElement]
$walker = [System.Windows.Automation.TreeWalker]::ControlViewWalker
function Pat($e, $p) { $o = $null; if ($e.TryGetCurrentPattern($p, [ref]$o)) { $o } else { $null } }
function Dump($e, $d) {
  $c = $e.Current
  $r = $c.BoundingRectangle
  $n = [ordered]@{ controlType = $c.ControlType.ProgrammaticName -replace '^ControlType\.', ''; name = [string]$c.Name; helpText = [string]$c.HelpText;
    rect = $(if ($r.IsEmpty) { $null } else { @($r.X, $r.Y, $r.Width, $r.Height) }); enabled = $c.IsEnabled; focusable = $c.IsKeyboardFocusable;
    focused = $c.HasKeyboardFocus; offscreen = $c.IsOffscreen; password = $c.IsPassword; patterns = @(); children = @() }
  foreach ($p in $e.GetSupportedPatterns()) { $n.patterns += ($p.ProgrammaticName -replace 'PatternIdentifiers\.Pattern$', '') }
  $v = Pat $e ([System.Windows.Automation.ValuePattern]::Pattern); if ($v -and -not $c.IsPassword) { $n.value = [string]$v.Current.Value; $n.readOnly = $v.Current.IsReadOnly }
  $t = Pat $e ([System.Windows.Automation.TogglePattern]::Pattern); if ($t) { $n.toggle = [string]$t.Current.ToggleState }
  $s = Pat $e ([System.Windows.Automation.SelectionItemPattern]::Pattern); if ($s) { $n.selected = $s.Current.IsSelected }
  $x = Pat $e ([System.Windows.Automation.ExpandCollapsePattern]::Pattern); if ($x) { $n.expand = [string]$x.Current.ExpandCollapseState }
  $w = Pat $e ([System.Windows.Automation.WindowPattern]::Pattern); if ($w) { $n.modal = $w.Current.IsModal }
  if ($d -lt $MaxDepth) { $k = $walker.GetFirstChild($e); while ($k) { $n.children += (Dump $k ($d + 1)); $k = $walker.GetNextSibling($k) } }
  $n
}
$roots = if ($Pattern -or $All) { @($A::RootElement.FindAll([System.Windows.Automation.TreeScope]::Children, [System.Windows.Automation.Condition]::TrueCondition) | Where-Object { $All -or $_.Current.Name -match $Pattern }) } else { @($A::FromHandle([DP.Win]::GetForegroundWindow())) }
$out = foreach ($r in $roots) { $p = Get-Process -Id $r.Current.ProcessId -ErrorAction SilentlyContinue; @{ app = [string]$p.ProcessName; pid = $r.Current.ProcessId; root = (Dump $r 0) } }
ConvertTo-Json -InputObject @($out) -Depth 100 -Compress
`;

/** PowerShell single-quoted string literal. */
const psString = (s: string) => `'${s.replace(/'/g, "''")}'`;

export async function readUiaTree(request: ElementTreeRequest, scale: number): Promise<ElementTreeResult> {
  const prelude = `$MaxDepth = ${request.maxDepth}; $Pattern = ${psString(request.windowPattern ?? '')}; $All = $${request.scope === 'all'}`;
  const out = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', `${prelude}\n${UIA_DUMP}`], { timeoutMs: 15_000 });
  return uiaDumpToTree(out.stdout, request, scale);
}

/** The dump's JSON → a tree result (pure: tested with sample dumps). */
export function uiaDumpToTree(json: string, request: ElementTreeRequest, scale: number): ElementTreeResult {
  const windows = z.array(UiaWindowSchema).parse(JSON.parse(json));
  if (windows.length === 0) {
    return { kind: 'none', source: 'uia', reason: 'no-window', detail: request.windowPattern ? `no window matches /${request.windowPattern}/` : 'no window is in the foreground' };
  }
  return toElementTree('uia', windows.map((w) => uiaWindowToPlatform(w, scale)), request);
}
