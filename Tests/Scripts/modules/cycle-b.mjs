import { a } from "./cycle-a.mjs";
export let b = a + 1;
