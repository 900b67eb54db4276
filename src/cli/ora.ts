// ora (the spinner of `pm partner onboard`'s allowance wait on a terminal) as a bundle of its own,
// dist/vendor/ora.cjs (scripts/build.mjs): ora and its spinner table are ~55 KB that no other
// command needs. Re-exported by name: a default import of another bundle would get its exports object.
export { default as ora } from 'ora';
