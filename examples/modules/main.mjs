// A small module graph for `jsrun examples/modules/main.mjs`: named, default and
// namespace imports, a re-export, a cycle (even/odd), a JSON module, top-level await
// and a dynamic import.
import greet, { shout } from "./lib/greet.mjs";
import * as shapes from "./lib/shapes.mjs";
import { isEven } from "./lib/even.mjs";
import config from "./config.json" with { type: "json" };

console.log(greet(config.name), shout("modules"));
console.log("area:", shapes.area({ kind: "square", side: 3 }), "shapes:", Object.keys(shapes).join(","));
console.log("even(10):", isEven(10), "even(7):", isEven(7));
const { lazyValue } = await import("./lib/lazy.mjs");
console.log("lazy:", await lazyValue(), import.meta.url.endsWith("/main.mjs"));
