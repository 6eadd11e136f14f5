// A small program touching most of the language: classes with private fields,
// generators, destructuring, template literals, optional chaining.
class Counter {
  #count = 0;
  static #instances = 0;
  constructor(name) { this.name = name; Counter.#instances++; }
  increment(by = 1) { this.#count += by; return this; }
  get value() { return this.#count; }
  static get instances() { return Counter.#instances; }
}

function* fibonacci(limit) {
  let [a, b] = [0, 1];
  while (a < limit) { yield a; [a, b] = [b, a + b]; }
}

const counter = new Counter("clicks").increment().increment(41);
const fibs = [...fibonacci(100)];
const { name, value } = { name: counter.name, value: counter.value };
const report = `${name}: ${value} (${Counter.instances} counter); fib: ${fibs.join(" ")}`;
const missing = counter.options?.verbose ?? "quiet";
console.log(report, missing);
