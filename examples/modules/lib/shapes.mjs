export const PI = 3.14;
export function area(shape) { return shape.kind === "square" ? shape.side ** 2 : PI * shape.radius ** 2; }
