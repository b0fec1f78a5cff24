/** Mistral 7B's tokenizer (sentencepiece vocabulary and merges), used to check the simulator's counts. */
declare module 'mistral-tokenizer-js' {
  const mistralTokenizer: {
    encode(text: string, addBosToken?: boolean, addPrecedingSpace?: boolean): number[];
    decode(tokens: number[], addBosToken?: boolean, addPrecedingSpace?: boolean): string;
  };
  export default mistralTokenizer;
}
