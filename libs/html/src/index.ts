export { escapeHtml, inlineScript, scriptJson } from './html-text';
