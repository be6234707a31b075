mod layers;
mod workspace_rules;
