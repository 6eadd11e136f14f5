import { a } from "./syntax-error-dep.mjs";
