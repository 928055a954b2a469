// `performance` exists in Node, browsers and workers alike; declared here because the core compiles without DOM or Node types.
declare const performance: { now(): number };

export const now = (): number => performance.now();
