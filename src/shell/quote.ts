// Quoting for words we splice into a command line.

// Nothing here is special to bash or zsh in any word position; `=` and `~` are safe only after the first character.
const SAFE = /^[A-Za-z0-9_\-+.,/:@%][A-Za-z0-9_\-+.,/:@%=~]*$/;

/** A POSIX-safe form of `word`: unchanged when every character is inert, else single-quoted. */
export function shellQuote(word: string): string {
  if (SAFE.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
