import { describe, expect, it } from 'vitest';
import { MAX_DESCRIPTION_CHARS, parseDescription } from '../../../src/main/agent/resolve/describe.js';
import { DescriptionError } from '../../../src/main/agent/resolve/types.js';

/**
 * How a planner's description is read (issue 33 item 1) before any stage looks at the
 * screen: the role words a person uses and the AT-SPI roles each allows (a wrong role
 * costs a tree match 0.4 of its score, so each list is what a click may land on), the
 * names of signs, the verbs that are the action, the relations and the scope.
 */

const FIELD = ['text', 'entry', 'password text', 'spin button', 'combo box'];

describe('role words', () => {
  // Each role word as the end of a description, and the roles it allows.
  const TABLE: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['check box', ['check box', 'check menu item', 'toggle button']],
    ['checkbox', ['check box', 'check menu item', 'toggle button']],
    ['radio button', ['radio button', 'radio menu item']],
    ['toggle button', ['toggle button', 'push button']],
    ['text field', FIELD],
    ['text box', FIELD],
    ['input field', FIELD],
    ['search box', ['text', 'entry', 'combo box']],
    ['combo box', ['combo box']],
    ['drop down', ['combo box', 'push button menu', 'menu']],
    ['dropdown', ['combo box', 'push button menu', 'menu']],
    ['menu item', ['menu item', 'check menu item', 'radio menu item']],
    ['spin button', ['spin button']],
    ['button', ['push button', 'toggle button', 'push button menu', 'button']],
    ['field', FIELD],
    ['entry', ['text', 'entry', 'password text', 'spin button']],
    ['input', ['text', 'entry', 'password text', 'spin button']],
    ['menu', ['menu', 'menu item']],
    ['tab', ['page tab']],
    ['link', ['link']],
    ['slider', ['slider']],
    ['switch', ['toggle button', 'check box', 'switch']],
    ['icon', ['push button', 'icon', 'image', 'toggle button']],
    ['label', ['label', 'static']],
    ['item', ['list item', 'tree item', 'menu item', 'table cell']],
    ['list', ['list', 'list box', 'table', 'tree', 'tree table']],
  ];

  it.each(TABLE)('"the Volume %s" names "volume" with its roles', (word, roles) => {
    expect(parseDescription(`the Volume ${word}`)).toEqual({ text: `the Volume ${word}`, words: 'volume', alternatives: [], quoted: false, roles });
  });

  it('a longer role phrase wins over its last word ("text field" is not a field named "text")', () => {
    expect(parseDescription('the Name text field')).toMatchObject({ words: 'name', roles: FIELD });
    expect(parseDescription('the Dark mode toggle button').words).toBe('dark mode');
    expect(parseDescription('the Dark mode toggle button').roles).toEqual(['toggle button', 'push button']);
  });

  it('a role word inside a word is no role word ("Submenu", "Stable")', () => {
    expect(parseDescription('Submenu')).toMatchObject({ words: 'submenu', roles: [] });
    expect(parseDescription('the Stable')).toMatchObject({ words: 'stable', roles: [] });
  });

  it('a whole description of one role word or phrase is the role and a name; a name before a role word is a name', () => {
    expect(parseDescription('the button')).toEqual({ text: 'the button', words: '', alternatives: [], quoted: false, roles: ['push button', 'toggle button', 'push button menu', 'button'], roleWordAsName: 'button' });
    expect(parseDescription('the text field')).toEqual({ text: 'the text field', words: '', alternatives: [], quoted: false, roles: FIELD, roleWordAsName: 'text field' });
    expect(parseDescription('the Menu button')).toMatchObject({ words: 'menu', roles: ['push button', 'toggle button', 'push button menu', 'button'] });
    expect(parseDescription('the Menu button').roleWordAsName).toBeUndefined();
  });
});

describe('signs', () => {
  const SIGNS: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['equals', ['=']],
    ['equal sign', ['=']],
    ['plus', ['+']],
    ['add', ['+']],
    ['minus', ['−', '-']],
    ['subtract', ['−', '-']],
    ['times', ['×', '*']],
    ['multiply', ['×', '*']],
    ['divide', ['÷', '/']],
    ['divided by', ['÷', '/']],
    ['percent', ['%']],
    ['decimal point', ['.', ',']],
  ];
  it.each(SIGNS)('"the %s button" is also written %j', (name, signs) => {
    expect(parseDescription(`the ${name} button`)).toMatchObject({ words: name, alternatives: signs });
  });
  it('a name that is no sign has no other writing', () => {
    expect(parseDescription('the Seven button').alternatives).toEqual([]);
  });
});

describe('verbs', () => {
  it.each(['click', 'click on', 'double-click', 'double click', 'right-click', 'right click', 'tap', 'hit', 'Tap on'])('"%s the OK button" names OK', (verb) => {
    expect(parseDescription(`${verb} the OK button`)).toMatchObject({ words: 'ok', roles: expect.arrayContaining(['push button']) });
  });

  it('press, select, choose and open before an article are the action; before a name, part of it first', () => {
    for (const verb of ['press', 'select', 'choose', 'open']) {
      expect(parseDescription(`${verb} the Bold button`), verb).toMatchObject({ words: 'bold', alternatives: [] });
      expect(parseDescription(`${verb} Bold`), verb).toMatchObject({ words: `${verb} bold`, alternatives: ['bold'] });
    }
    // The verb alone is the name.
    expect(parseDescription('press')).toMatchObject({ words: 'press', alternatives: [] });
    // A quoted name after the verb: the name exactly.
    expect(parseDescription('select "All files"')).toMatchObject({ words: 'all files', quoted: true, alternatives: [] });
    // The role words come from the whole words, or from the bare ones when only they carry it.
    expect(parseDescription('open Recent menu')).toMatchObject({ words: 'open recent', alternatives: ['recent'], roles: ['menu', 'menu item'] });
    // The bare words' sign names follow them.
    expect(parseDescription('press plus')).toMatchObject({ words: 'press plus', alternatives: ['plus', '+'] });
    // The rest after the verb is a role word alone ("open menu"): the verb is the name, and no empty name is offered beside it.
    expect(parseDescription('open menu')).toEqual({ text: 'open menu', words: 'open', alternatives: [], quoted: false, roles: ['menu', 'menu item'] });
  });

  it('a verb or an article inside the words is part of the name: only a leading one is dropped', () => {
    expect(parseDescription('the Double click speed slider')).toMatchObject({ words: 'double click speed', roles: ['slider'] });
    expect(parseDescription('the Hit count label')).toMatchObject({ words: 'hit count' });
    // "a " inside "data file" and "as a copy" stays: "Data file" is not "datfile", "Save as a copy" is not "save as copy".
    expect(parseDescription('the Data file field')).toMatchObject({ words: 'data file', roles: FIELD });
    expect(parseDescription('Save as a copy')).toMatchObject({ words: 'save as a copy', alternatives: [] });
    // After a name verb, "data" is no article: the verb is read both ways.
    expect(parseDescription('open Data file')).toMatchObject({ words: 'open data file', alternatives: ['data file'] });
  });
});

describe('relations', () => {
  const RELATIONS: ReadonlyArray<readonly [string, string]> = [
    ['to the right of', 'right'],
    ['right of', 'right'],
    ['to the left of', 'left'],
    ['left of', 'left'],
    ['below', 'below'],
    ['under', 'below'],
    ['beneath', 'below'],
    ['underneath', 'below'],
    ['above', 'above'],
    ['over', 'above'],
    ['next to', 'near'],
    ['beside', 'near'],
    ['near', 'near'],
  ];
  it.each(RELATIONS)('"the field %s Cancel" is %s of the anchor Cancel', (words, direction) => {
    const q = parseDescription(`the field ${words} Cancel`);
    expect(q).toEqual({
      text: `the field ${words} Cancel`,
      words: '',
      alternatives: [],
      quoted: false,
      roles: FIELD,
      relation: { direction, anchor: { text: 'cancel', words: 'cancel', alternatives: [], quoted: false, roles: [] } },
    });
  });

  it('a relation word that begins the description, ends it, or sits inside a word is no relation', () => {
    expect(parseDescription('Above all').relation).toBeUndefined();
    expect(parseDescription('the Sleep over').relation).toBeUndefined();
    expect(parseDescription('the Overview button')).toMatchObject({ words: 'overview' });
    expect(parseDescription('the Overview button').relation).toBeUndefined();
  });

  it('the anchor is read as a description of its own (role words, quotes), but never holds a relation itself', () => {
    expect(parseDescription('the OK button right of the "Name" field').relation).toEqual({
      direction: 'right',
      anchor: { text: 'the "name" field', words: 'name', alternatives: [], quoted: true, roles: FIELD },
    });
    const nested = parseDescription('the button right of Cancel left of Help');
    expect(nested.relation).toMatchObject({ direction: 'right', anchor: { words: 'cancel left of help' } });
    expect(nested.relation!.anchor.relation).toBeUndefined();
    // A role word that ends the part before the relation is its role, never its name.
    expect(parseDescription('the menu below Edit')).toMatchObject({ words: '', roles: ['menu', 'menu item'] });
    expect(parseDescription('the menu below Edit').roleWordAsName).toBeUndefined();
  });
});

describe('quotes and scope', () => {
  it('double, curly and single quotes name exactly; the role words around the quote still count', () => {
    expect(parseDescription('the "Save As" button')).toEqual({ text: 'the "Save As" button', words: 'save as', alternatives: [], quoted: true, roles: ['push button', 'toggle button', 'push button menu', 'button'] });
    expect(parseDescription('the “Save As” button')).toMatchObject({ words: 'save as', quoted: true });
    expect(parseDescription("the 'Save As' item")).toMatchObject({ words: 'save as', quoted: true, roles: ['list item', 'tree item', 'menu item', 'table cell'] });
    expect(parseDescription('"Equals"')).toMatchObject({ words: 'equals', alternatives: [], roles: [] });
  });

  it('"in/on/inside the …" at the end is the scope; a quoted name that holds those words is no scope', () => {
    expect(parseDescription('the OK button in the Export dialog')).toMatchObject({ words: 'ok', scope: 'export dialog' });
    expect(parseDescription('the Bold button on the toolbar')).toMatchObject({ words: 'bold', scope: 'toolbar' });
    expect(parseDescription('the Name field inside the form')).toMatchObject({ words: 'name', scope: 'form' });
    expect(parseDescription('the "Save in the cloud" button')).toEqual({
      text: 'the "Save in the cloud" button',
      words: 'save in the cloud',
      alternatives: [],
      quoted: true,
      roles: ['push button', 'toggle button', 'push button menu', 'button'],
    });
    expect(parseDescription('the "OK" button in the Export dialog')).toMatchObject({ words: 'ok', quoted: true, scope: 'export dialog', roles: expect.arrayContaining(['push button']) });
    expect(parseDescription('the "Save in the cloud" button in the Export dialog')).toMatchObject({ words: 'save in the cloud', quoted: true, scope: 'export dialog', roles: expect.arrayContaining(['push button']) });
    // Without "the" it is part of the name.
    expect(parseDescription('Sign in with email')).toEqual({ text: 'Sign in with email', words: 'sign in with email', alternatives: [], quoted: false, roles: [] });
    expect(parseDescription('Sign in the')).not.toHaveProperty('scope');
  });

  it('keeps the description as given, trimmed; spaces and case are normalised in the words', () => {
    expect(parseDescription('  The   SAVE  Button  ')).toMatchObject({ text: 'The   SAVE  Button', words: 'save' });
  });
});

describe('bad input', () => {
  it('empty and over-long descriptions are DescriptionErrors that say what to do', () => {
    expect(() => parseDescription('')).toThrow(DescriptionError);
    expect(() => parseDescription('   ')).toThrow('the target description is empty: say what to act on, e.g. "the Save button"');
    expect(() => parseDescription('a'.repeat(MAX_DESCRIPTION_CHARS + 1))).toThrow(`the target description is 301 characters; at most 300 are read: name the target in a few words`);
    expect(parseDescription(` ${'a'.repeat(MAX_DESCRIPTION_CHARS)} `).words).toHaveLength(300);
  });
});
