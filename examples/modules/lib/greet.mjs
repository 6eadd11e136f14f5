export default function greet(name) { return `hello, ${name}`; }
export { shout } from "./text.mjs";
