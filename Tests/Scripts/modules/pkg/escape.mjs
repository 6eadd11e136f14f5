import { secret } from "../outside/secret.mjs";
console.log(secret);
