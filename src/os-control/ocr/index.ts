/** Offline OCR (tesseract.js + bundled English data): read text, find labels. */
export { readText } from './read-text.js';
export { findText } from './find-text.js';
export { matchText, normalizeText, similarity } from './match-text.js';
export { prepareForOcr } from './preprocess.js';
export { terminateOcr, englishDataPath } from './engine.js';
export type { OcrLayout, OcrOptions, OcrResult, OcrWord, TextMatch } from './types.js';
export { readExact, expectedAlphabet, backgroundIsDark, hasInk, CONFIDENT, type ExactReading } from './read-exact.js';
