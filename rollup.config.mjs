import typescript from '@rollup/plugin-typescript';
import resolve from '@rollup/plugin-node-resolve';
import { appsScriptAssets, appsScriptEntryPoints } from './dev/build/apps-script-entry-points.mjs';

export default {
  input: 'src/index.ts',
  output: {
    file: 'dist/Code.js',
    format: 'cjs',
    esModule: false,
    strict: false,
    generatedCode: 'es2015',
  },
  treeshake: { moduleSideEffects: false },
  // zod's sources carry esbuild-style annotations rollup cannot place, and a harmless internal cycle.
  onwarn(warning, warn) {
    const inZod = (warning.id ?? warning.ids?.[0] ?? '').includes('node_modules/zod/');
    if (inZod && ['INVALID_ANNOTATION', 'CIRCULAR_DEPENDENCY'].includes(warning.code)) return;
    warn(warning);
  },
  plugins: [
    resolve({ browser: true }),
    typescript({ tsconfig: './tsconfig.json', noEmitOnError: true }),
    appsScriptEntryPoints({ index: 'src/index.ts' }),
    appsScriptAssets({ manifest: 'appsscript.json', uiDir: 'src/ui' }),
  ],
};
