/**
 * The code readable.ts runs in a worker thread: an HTML page made readable. Mozilla's Readability
 * (the reader view of Firefox) finds the article in a DOM built by linkedom; turndown writes it as
 * markdown, or a walk over it as plain text. A page where Readability finds no article, or one it
 * would take too long over, is converted whole (its body without scripts and styles). Links and
 * images point where they did on the page: relative URLs are resolved against the page's URL.
 *
 * Why a worker: a page is input from a stranger, and Readability's time grows much faster than the
 * page for deeply nested markup (2,000 nested divs, 40 KB of HTML, took 106 s of CPU when measured).
 * On the daemon's thread that would stop every other request; in a worker it costs the worker,
 * which readable.ts ends at the fetch's deadline. Readability is skipped outright past
 * READABILITY_MAX_ELEMENTS elements or READABILITY_MAX_DEPTH levels of nesting (a real article
 * page has a few thousand elements and a depth under 40), and turndown (recursive) past
 * TURNDOWN_MAX_DEPTH, where the plain-text walk (iterative) stands in.
 *
 * A plain CommonJS script evaluated by `new Worker(…, {eval: true})`, as the inbox's source
 * worker is (the same text runs from dist/ and under the test runner, which cannot start .ts
 * workers); the libraries are required by the absolute paths readable.ts resolves. It answers
 * one message `{html, pageUrl, format}` after another with `{ok, page | error}`.
 */
export const READABILITY_MAX_ELEMENTS = 20_000;
export const READABILITY_MAX_DEPTH = 100;
export const TURNDOWN_MAX_DEPTH = 500;

export const WORKER_SOURCE = String.raw`
const { parentPort, workerData: lib } = require('node:worker_threads');
// Nothing a library prints may reach the daemon's log lines (its stdout is the daemon's).
for (const level of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[level] = () => {};
const { parseHTML } = require(lib.linkedom);
const { Readability } = require(lib.readability);
const TurndownService = require(lib.turndown);

const NOISE = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'IFRAME', 'OBJECT', 'EMBED', 'CANVAS', 'SVG', 'HEAD']);
const BLOCKS = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE',
  'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION',
  'TABLE', 'TD', 'TH', 'TR', 'UL']);

parentPort.on('message', ({ html, pageUrl, format }) => {
  try {
    parentPort.postMessage({ ok: true, page: convert(html, pageUrl, format) });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String((e && e.message) || e).slice(0, 300) });
  }
});

function convert(html, pageUrl, format) {
  let { document } = parseHTML(html);
  const title = String(document.title || '').trim() || null;
  resolveUrls(document, pageUrl);
  const shape = measure(document.documentElement);
  let root = null;
  let articleTitle = null;
  const tryReadability = shape.elements <= lib.maxElements && shape.depth <= lib.maxDepth;
  if (tryReadability) {
    try {
      const article = new Readability(document, { serializer: (n) => n, maxElemsToParse: lib.maxElements }).parse();
      if (article && article.content && String(article.textContent || '').trim()) {
        root = article.content;
        articleTitle = String(article.title || '').trim() || null;
      }
    } catch {
      // A document Readability cannot read: converted whole below.
    }
    if (!root) {
      // Readability changed the document it read: the whole body comes from a fresh parse.
      document = parseHTML(html).document;
      resolveUrls(document, pageUrl);
    }
  }
  if (!root) root = withoutNoise(document.body || document.documentElement);
  let content = null;
  if (root && format === 'markdown' && shape.depth <= lib.turndownMaxDepth) {
    try {
      content = turndown().turndown(root);
    } catch {
      content = null;
    }
  }
  if (content === null) content = root ? textOf(root) : '';
  return { title: articleTitle || title, content: tidy(content) };
}

function measure(top) {
  let elements = 0;
  let depth = 0;
  const stack = top ? [[top, 1]] : [];
  while (stack.length > 0) {
    const [node, d] = stack.pop();
    elements++;
    if (d > depth) depth = d;
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) stack.push([c, d + 1]);
  }
  return { elements, depth };
}

function resolveUrls(document, pageUrl) {
  let base;
  try {
    const declared = document.querySelector('base[href]');
    base = new URL(declared ? declared.getAttribute('href') : pageUrl, pageUrl);
  } catch {
    base = new URL(pageUrl);
  }
  for (const [selector, attr] of [['a[href]', 'href'], ['img[src]', 'src']]) {
    for (const el of document.querySelectorAll(selector)) {
      try {
        el.setAttribute(attr, new URL(el.getAttribute(attr), base).href);
      } catch {
        // Not a URL: left as it was.
      }
    }
  }
}

function withoutNoise(root) {
  if (!root) return null;
  for (const el of [...root.querySelectorAll('script,style,noscript,template,iframe,object,embed,canvas,svg')]) el.remove();
  return root;
}

let service = null;
function turndown() {
  if (!service) {
    service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
    service.remove((node) => NOISE.has(node.nodeName.toUpperCase()));
  }
  return service;
}

// The text of a tree, a line per block element; iterative, so no nesting overflows the stack.
function textOf(root) {
  const out = [];
  const stack = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    if (item.nodeType === 3) {
      out.push(item.textContent || '');
      continue;
    }
    if (item.nodeType !== 1 && item.nodeType !== 9 && item.nodeType !== 11) continue;
    if (NOISE.has(String(item.nodeName).toUpperCase())) continue;
    const block = BLOCKS.has(String(item.nodeName).toUpperCase());
    if (block) stack.push('\n');
    const children = item.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    if (block) out.push('\n');
  }
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n');
}

function tidy(text) {
  return text.replace(/\n{3,}/g, '\n\n').trim();
}
`;
