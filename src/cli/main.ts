// Placeholder until the CLI lands.
console.log('prompt-optimizer');
