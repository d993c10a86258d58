/** What a turn puts in front of its model within the model's window (docs/context.md). */
export {};
