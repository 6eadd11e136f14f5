import "./not-there.mjs";
