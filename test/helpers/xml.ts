/**
 * A strict reader of the XML subset JUnit reports use (no XML parser is among the dependencies): a
 * declaration, elements with attributes, character data, comments, the five named entities and character
 * references. Anything not well-formed throws, with its offset: mismatched or unclosed tags, a second root,
 * an unquoted or repeated attribute, a raw `<` or a stray `&`, text outside the root.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data, entities resolved. */
  text: string;
}

const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const nameChars = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;

export function parseXml(source: string): XmlElement {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`not well-formed XML at offset ${i}: ${why}`);
  };
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i]!)) i++;
  };
  const name = () => {
    nameChars.lastIndex = i;
    const m = nameChars.exec(source);
    if (!m) fail("expected a name");
    i += m![0].length;
    return m![0];
  };
  const decode = (raw: string) => {
    if (raw.includes("<")) fail("a raw < in character data or an attribute");
    return raw.replace(/&([^;&\s]*);|&/g, (whole, ref: string | undefined) => {
      if (ref === undefined) return fail("a stray &");
      if (ref in named) return named[ref]!;
      const code = /^#x([0-9a-fA-F]+)$/.exec(ref)?.[1] ?? /^#([0-9]+)$/.exec(ref)?.[1];
      if (code === undefined) return fail(`an unknown entity ${whole}`);
      return String.fromCodePoint(Number.parseInt(code, ref.startsWith("#x") ? 16 : 10));
    });
  };
  const misc = () => {
    for (;;) {
      skipSpace();
      if (source.startsWith("<!--", i)) {
        const end = source.indexOf("-->", i);
        if (end < 0) fail("an unclosed comment");
        i = end + 3;
      } else return;
    }
  };
  const element = (): XmlElement => {
    if (source[i] !== "<") fail("expected <");
    i++;
    const el: XmlElement = { name: name(), attributes: {}, children: [], text: "" };
    for (;;) {
      const spaced = /\s/.test(source[i] ?? "");
      skipSpace();
      if (source.startsWith("/>", i)) {
        i += 2;
        return el;
      }
      if (source[i] === ">") {
        i++;
        break;
      }
      if (!spaced) fail("attributes are separated by white space");
      const attr = name();
      skipSpace();
      if (source[i] !== "=") fail(`expected = after ${attr}`);
      i++;
      skipSpace();
      const quote = source[i];
      if (quote !== '"' && quote !== "'") fail(`the value of ${attr} is not quoted`);
      const end = source.indexOf(quote!, i + 1);
      if (end < 0) fail(`the value of ${attr} is not closed`);
      if (Object.hasOwn(el.attributes, attr)) fail(`${attr} is repeated`);
      el.attributes[attr] = decode(source.slice(i + 1, end));
      i = end + 1;
    }
    for (;;) {
      const next = source.indexOf("<", i);
      if (next < 0) fail(`<${el.name}> is not closed`);
      el.text += decode(source.slice(i, next));
      i = next;
      if (source.startsWith("</", i)) {
        i += 2;
        if (name() !== el.name) fail(`</…> does not close <${el.name}>`);
        skipSpace();
        if (source[i] !== ">") fail("expected >");
        i++;
        return el;
      }
      if (source.startsWith("<!--", i)) misc();
      else el.children.push(element());
    }
  };
  if (source.startsWith("<?xml", i)) {
    const end = source.indexOf("?>", i);
    if (end < 0) fail("an unclosed declaration");
    i = end + 2;
  }
  misc();
  const root = element();
  misc();
  if (i !== source.length) fail("content after the root element");
  return root;
}

/** Every element named `name` at any depth under `el`, in document order. */
export function elementsNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.flatMap((child) => [
    ...(child.name === name ? [child] : []),
    ...elementsNamed(child, name),
  ]);
}
