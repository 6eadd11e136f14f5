import { b } from "./cycle-b.mjs";
export let a = 1;
