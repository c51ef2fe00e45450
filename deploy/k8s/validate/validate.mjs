// Validates every object the Kustomization lists against the Kubernetes API schema of its kind, with
// no cluster: the schemas ship in the kubernetes-models package. Exits non-zero naming each problem.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const kustomization = parseAllDocuments(readFileSync(join(root, "kustomization.yaml"), "utf8"))[0].toJS();

function modelPath(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const folder = group === "" ? version : `${group === "apps" ? "apps" : group}/${version}`;
  return `kubernetes-models/${folder}/${kind}`;
}

let problems = 0;
let checked = 0;
for (const file of kustomization.resources) {
  for (const doc of parseAllDocuments(readFileSync(join(root, file), "utf8"))) {
    if (doc.errors.length) {
      console.error(`${file}: YAML error: ${doc.errors[0].message}`);
      problems++;
      continue;
    }
    const object = doc.toJS();
    if (!object) continue;
    const where = `${file}: ${object.kind}/${object.metadata?.name}`;
    try {
      const module = await import(modelPath(object.apiVersion, object.kind));
      const Model = module[object.kind] ?? module.default;
      new Model(object).validate();
      checked++;
    } catch (error) {
      console.error(`${where}: ${error.message}`);
      problems++;
    }
  }
}
for (const image of kustomization.images ?? []) {
  if (!image.name || !image.newTag) {
    console.error(`kustomization.yaml: image entry needs name and newTag: ${JSON.stringify(image)}`);
    problems++;
  }
}
if (problems) {
  console.error(`${problems} problem(s) in deploy/k8s`);
  process.exit(1);
}
console.log(`deploy/k8s: ${checked} objects valid against the Kubernetes API schemas`);
