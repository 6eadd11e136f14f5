const ready = await Promise.resolve(42);
export async function lazyValue() { return ready; }
