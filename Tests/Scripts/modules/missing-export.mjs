import { missing } from "./cycle-b.mjs";
