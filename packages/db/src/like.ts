/** `text` as it stands in a LIKE pattern: its own `%`, `_` and `\` taken literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern that matches `text` anywhere. */
export const containing = (text: string): string => `%${escapeLike(text)}%`;
