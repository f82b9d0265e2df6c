/**
 * OPT-IN, the full count: four judged rounds of click-then-type.cases.ts (CI runs one,
 * click-then-type.desktop.test.ts). Passed 4 of 4 at load 41-48 once the click's answer was
 * tied to the clicked object (click-target.ts) and keys waited as long as the click owes
 * (click-owed.ts); before, 2 of 4 with 13f7130 (the page's own reports from before the
 * click passed for its answer) and 0 of 4 without any wait.
 */
import { clickThenTypeCases } from './click-then-type.cases.js';

clickThenTypeCases(4);
