console.log("js as module", typeof import.meta);
