/**
 * A small element builder: every text goes in as a text node, never as HTML,
 * so nothing a user record holds can become markup or script in the console.
 */
export type Child = Node | string | number | null | undefined | false;
type Listener = (event: Event) => void;
export type Props = Record<string, string | number | boolean | Listener | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces every child of `parent`. */
export function replace(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * Text from a record (a name, an id) inside a sentence: isolated, so right-to-left
 * overrides it holds cannot reorder the words around it (Unicode bidi, `<bdi>`).
 */
export function isolate(text: string): HTMLElement {
  return h('bdi', {}, text);
}

let announcer: HTMLElement | undefined;

/** Says `message` to screen readers (and shows it) in the page's one polite status region. */
export function announce(message: string): void {
  announcer ??= document.getElementById('status') ?? undefined;
  if (announcer) announcer.textContent = message;
}
