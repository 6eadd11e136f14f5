export const secret = "read";
