// The JSX runtime of the pages: Preact's, rendered to a string by preact-render-to-string (which
// escapes every text and attribute; user HTML goes in only through `dangerouslySetInnerHTML`,
// after the sanitiser). Loaded with require so TypeScript does not pull Preact's DOM typings
// into a server project; the element types the pages use are declared here instead.

/** A rendered element (Preact's VNode, opaque to the pages). */
export type Node = { readonly __node: true };
export type Child = Node | string | number | boolean | null | undefined | Child[];

type Runtime = {
  jsx(type: unknown, props: Record<string, unknown>, key?: unknown): Node;
  jsxs(type: unknown, props: Record<string, unknown>, key?: unknown): Node;
  Fragment: unknown;
};
const runtime = require("preact/jsx-runtime") as Runtime;

export const jsx = runtime.jsx;
export const jsxs = runtime.jsxs;
export const jsxDEV = runtime.jsx;
export const Fragment = runtime.Fragment as (props: { children?: Child }) => Node;

export namespace JSX {
  export type Element = Node;
  export interface ElementChildrenAttribute {
    children: unknown;
  }
  /** Attributes of every element: strings, numbers, booleans (present or not), and the raw-HTML escape hatch. */
  export interface Attributes {
    children?: Child;
    dangerouslySetInnerHTML?: { __html: string };
    key?: string | number;
    [attribute: string]: unknown;
  }
  export interface IntrinsicElements {
    [tag: string]: Attributes;
  }
}
