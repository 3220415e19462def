// Renders TeX to HTML with KaTeX for the site build (_ext/katex_math.py drives it).
//
// Protocol, one JSON document per line:
//   argv[2]       the macros, {"\\name": "body", ...} (KaTeX reads the arguments #1, #2 ... from the body)
//   stdin line    [{"tex": "...", "display": true|false}, ...]
//   stdout line   [{"html": "...", "error": null | "message"}, ...]   (same order)
// A formula KaTeX cannot parse comes back rendered with throwOnError: false (KaTeX's red
// .katex-error span, which the browser checks look for) and with the parser's message,
// which the Sphinx extension turns into a build warning.
"use strict";
const katex = require("katex");
const readline = require("readline");

const macros = JSON.parse(process.argv[2] || "{}");

function render(item) {
  const options = {displayMode: !!item.display, macros: Object.assign({}, macros),
                   output: "htmlAndMathml", strict: "ignore", trust: false};
  try {
    return {html: katex.renderToString(item.tex, Object.assign({throwOnError: true}, options)), error: null};
  } catch (e) {
    if (!(e instanceof katex.ParseError)) { throw e; }
    return {html: katex.renderToString(item.tex, Object.assign({throwOnError: false}, options)),
            error: e.message};
  }
}

const lines = readline.createInterface({input: process.stdin, crlfDelay: Infinity, terminal: false});
lines.on("line", line => {
  if (!line.trim()) { return; }
  process.stdout.write(JSON.stringify(JSON.parse(line).map(render)) + "\n");
});
process.stdout.write(JSON.stringify({ready: true, version: katex.version}) + "\n");
