export const a = 1;

let b = ;
