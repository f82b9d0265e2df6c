/**
 * The grounding bench's labelled set on Chromium pages (issue 33 item 4): the probe page's
 * grid of controls (test/harness/probe/page.html `controls`: kinds in turn button, check
 * box, link, text, password, radio; 5 columns 180 px apart, rows 44 px apart), renamed to
 * the names below. The ground truth of every item is the DOM's own box of its control
 * (getBoundingClientRect on the screen through the probe's measured content origin), so it
 * never comes from the tree or OCR the bench measures.
 *
 * Each control gives three items: its name as the page names it, a paraphrase (other words
 * a planner might use), and a spatial one ("the link right of Archive", "the text field
 * below Due date") whose truth is the neighbour in the grid by construction.
 */

/** The page's kinds in the order page.html deals them out (control i is KINDS[i % 6]). */
export const KINDS = ['button', 'checkbox', 'link', 'text', 'password', 'radio'] as const;
export type ControlKind = (typeof KINDS)[number];
/** The grid's columns (page.html: left = 20 + (i % 5) · 180). */
export const COLUMNS = 5;

/** How a planner names each kind's role. */
export const ROLE_WORDS: Readonly<Record<ControlKind, string>> = {
  button: 'button',
  checkbox: 'check box',
  link: 'link',
  text: 'text field',
  password: 'text field',
  radio: 'radio button',
};

export type DescriptionKind = 'name' | 'paraphrase' | 'spatial';

/** [name on the page, a paraphrase of it without the role word]. 60 per page, two pages. */
export const PAGES: ReadonlyArray<ReadonlyArray<readonly [string, string]>> = [
  [
    ['Save draft', 'draft saving'],
    ['Remember me', 'remember'],
    ['Privacy policy', 'policy on privacy'],
    ['First name', 'given name'],
    ['Password', 'pass word'],
    ['Monthly billing', 'billing every month'],
    ['Export PDF', 'PDF export'],
    ['Send copy to me', 'copy to me'],
    ['Terms of service', 'service terms'],
    ['Last name', 'family name'],
    ['Confirm password', 'password confirmation'],
    ['Yearly billing', 'annual billing'],
    ['Add attachment', 'attach a file'],
    ['Enable notifications', 'notifications'],
    ['Help center', 'help'],
    ['Email address', 'e-mail'],
    ['Old password', 'current password'],
    ['Express shipping', 'fast shipping'],
    ['Delete account', 'account deletion'],
    ['Dark mode', 'dark theme'],
    ['Contact support', 'support contact'],
    ['Phone number', 'telephone'],
    ['Backup code', 'recovery code'],
    ['Standard shipping', 'normal shipping'],
    ['Upload photo', 'photo upload'],
    ['Auto save', 'automatic saving'],
    ['Release notes', 'notes on the release'],
    ['Street address', 'street'],
    ['Access token', 'token'],
    ['Pick up in store', 'store pickup'],
    ['Print invoice', 'invoice printing'],
    ['Share location', 'location sharing'],
    ['Forgot password', 'lost password'],
    ['Postal code', 'zip code'],
    ['Admin PIN', 'PIN for admin'],
    ['Pay by card', 'card payment'],
    ['Apply coupon', 'coupon'],
    ['Subscribe to newsletter', 'newsletter subscription'],
    ['Sign up', 'sign-up'],
    ['City', 'town'],
    ['Vault key', 'key of the vault'],
    ['Pay by invoice', 'invoice payment'],
    ['Place order', 'order placing'],
    ['Gift wrap', 'gift wrapping'],
    ['View cart', 'shopping cart'],
    ['Company name', 'company'],
    ['Wi-Fi passphrase', 'wifi passphrase'],
    ['Pay on delivery', 'cash on delivery'],
    ['Cancel order', 'order cancellation'],
    ['Use as default', 'default'],
    ['Order history', 'history of orders'],
    ['Tax ID', 'tax identifier'],
    ['Master password', 'main password'],
    ['Light theme', 'light mode'],
    ['Track package', 'package tracking'],
    ['Include receipt', 'receipt'],
    ['Return policy', 'returns'],
    ['Coupon code', 'discount code'],
    ['Server secret', 'secret of the server'],
    ['System theme', 'theme of the system'],
  ],
  [
    ['Open file', 'file opening'],
    ['Show hidden files', 'hidden files'],
    ['Recent documents', 'recently opened'],
    ['File name', 'name of the file'],
    ['Encryption key', 'key for encryption'],
    ['Portrait', 'portrait orientation'],
    ['Rename', 'rename it'],
    ['Overwrite existing', 'overwrite'],
    ['Shared with me', 'shared'],
    ['Folder path', 'path of the folder'],
    ['Archive password', 'password of the archive'],
    ['Landscape', 'landscape orientation'],
    ['Duplicate', 'copy'],
    ['Read only', 'read-only'],
    ['Trash', 'bin'],
    ['Search files', 'file search'],
    ['Unlock code', 'code to unlock'],
    ['Sort by name', 'sorted by name'],
    ['Move to trash', 'move into the trash'],
    ['Compress files', 'compression'],
    ['Downloads', 'downloaded files'],
    ['Tag', 'label'],
    ['Signing key', 'key for signing'],
    ['Sort by date', 'sorted by date'],
    ['New folder', 'folder creation'],
    ['Follow symlinks', 'symlinks'],
    ['Open in terminal', 'terminal here'],
    ['Comment', 'remark'],
    ['SSH passphrase', 'passphrase for SSH'],
    ['Sort by size', 'sorted by size'],
    ['Undo', 'undo it'],
    ['Sync now', 'synchronise'],
    ['Keyboard shortcuts', 'shortcuts'],
    ['Author', 'written by'],
    ['Database password', 'password of the database'],
    ['Grid view', 'grid'],
    ['Redo', 'redo it'],
    ['Preserve timestamps', 'timestamps'],
    ['Properties', 'file properties'],
    ['Width', 'how wide'],
    ['Proxy password', 'password of the proxy'],
    ['List view', 'list'],
    ['Zoom in', 'enlarge'],
    ['Spell check', 'spelling'],
    ['About', 'about this app'],
    ['Height', 'how tall'],
    ['API secret', 'secret of the API'],
    ['Compact view', 'compact'],
    ['Zoom out', 'shrink'],
    ['Word wrap', 'wrapping words'],
    ['Quit', 'exit'],
    ['Font size', 'text size'],
    ['Recovery phrase', 'phrase for recovery'],
    ['Single page', 'one page'],
    ['Find next', 'next match'],
    ['Line numbers', 'numbered lines'],
    ['Preferences', 'settings'],
    ['Tab width', 'tab size'],
    ['Token secret', 'secret of the token'],
    ['Two pages', 'two page view'],
  ],
];

export interface PageItem {
  /** Which control (page.html id c<i>) the description means. */
  target: number;
  kind: DescriptionKind;
  description: string;
}

/** The three descriptions of every control of one page, in the page's order. */
export function pageItems(page: ReadonlyArray<readonly [string, string]>): PageItem[] {
  const items: PageItem[] = [];
  const kindOf = (i: number) => KINDS[i % KINDS.length]!;
  page.forEach(([name, paraphrase], i) => {
    const role = ROLE_WORDS[kindOf(i)];
    items.push({ target: i, kind: 'name', description: name });
    items.push({ target: i, kind: 'paraphrase', description: `the ${paraphrase} ${role}` });
    // Spatial: from the neighbour on the left ("right of"), or for the first column the one above ("below"),
    // or for the very first control the one on its right ("left of").
    const column = i % COLUMNS;
    if (column > 0) items.push({ target: i, kind: 'spatial', description: `the ${role} right of ${page[i - 1]![0]}` });
    else if (i >= COLUMNS) items.push({ target: i, kind: 'spatial', description: `the ${role} below ${page[i - COLUMNS]![0]}` });
    else items.push({ target: i, kind: 'spatial', description: `the ${role} left of ${page[i + 1]![0]}` });
  });
  return items;
}
