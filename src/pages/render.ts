// Rendering a page to HTML text (preact-render-to-string: escapes text and attributes).
import type { Node } from "./jsx-runtime";

const renderer = require("preact-render-to-string") as { renderToString(node: Node): string };

/** The document's HTML, with its doctype. */
export const renderPage = (node: Node): string => `<!DOCTYPE html>${renderer.renderToString(node)}`;
