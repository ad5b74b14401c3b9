import { AGREEMENT_SCORES, agreementLabel, isAgreementScore } from '../../domain/agreement-score.js';

/*
 * Values of src/domain that the pages show text with, handed to the browser code through the wire (the
 * browser code takes values from src/web/wire alone: test/architecture.test.ts). The domain modules
 * named here import nothing and touch no DOM, Node, clock or process.
 */

export { visibleBidiControls } from '../../domain/printable-text.js';

/** A score's label on the five-point scale (4: "Support"); empty for a number off the scale. */
export const agreementText = (score: number): string => (isAgreementScore(score) ? agreementLabel(score) : '');

/** The five labels in score order, as the pages offer them. */
export const AGREEMENT_TEXTS: readonly string[] = AGREEMENT_SCORES.map(agreementLabel);
