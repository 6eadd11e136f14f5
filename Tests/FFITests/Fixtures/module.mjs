const { symbols } = Sable.dlopen("libm.so.6", { pow: { parameters: ["f64", "f64"], result: "f64" } });
console.log(symbols.pow(2, 10));
