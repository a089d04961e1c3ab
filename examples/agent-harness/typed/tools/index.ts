import type { ClassifiedTool } from 'tool-result-guard';
import { BashTool } from './bash.js';
import { readFileTool } from './read-file.js';
import { webFetchTool } from './web-fetch.js';

// Tools defined in other files keep their classification through the import.
export const tools: readonly ClassifiedTool[] = [readFileTool, webFetchTool, new BashTool()];
