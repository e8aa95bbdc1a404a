//! The pattern parsed once per edit, and what is derived from the parse tree.
//!
//! The pattern pane colours the pattern from the tree's spans, the Explain tab shows the
//! explanation (tree and lints) or the railroad diagram, and the Debug tab names the nested
//! quantifier behind a growth class: all of them read one [`Analysis`], made by
//! [`super::Workbench::analysis`] the first time it is asked for after the pattern, flavor or
//! flags changed. Each derived view (tokens, rows, railroad, lints) is computed the first time
//! it is read and kept with the tree, so a frame costs a lookup, not a parse.

use crate::Span;
use crate::error::Error;
use crate::flavor::{Flags, Flavor};
use crate::highlight::{Kind, pattern_tokens};
use crate::syntax::ast::Ast;
use crate::syntax::explain::explain;
use crate::syntax::lint::{Lint, Severity, lint};
use std::sync::{Arc, Mutex, OnceLock};

/// One row of the explanation: a tree node or a lint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplainRow {
    /// Nesting depth (lints: 0).
    pub depth: usize,
    /// The node kind, or `warning[code]` / `info[code]` for a lint.
    pub kind: String,
    /// The pattern text of the node (empty for lints).
    pub text: String,
    /// What it means, or the lint's message.
    pub meaning: String,
    /// The span in the pattern.
    pub span: Option<Span>,
    /// How the node's text is coloured.
    pub highlight: Kind,
    /// Whether this row is a lint.
    pub lint: bool,
}

/// The pattern, flavor and flags an [`Analysis`] was made for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisKey {
    /// The pattern text.
    pub pattern: String,
    /// Its flavor.
    pub flavor: Flavor,
    /// Its flags.
    pub flags: Flags,
}

/// A railroad diagram's lines, or why there is none, shared.
pub type Diagram = Arc<Result<Vec<String>, String>>;

/// The parse of one pattern and the views derived from it (each made on first read).
#[derive(Debug)]
pub struct Analysis {
    key: AnalysisKey,
    /// Shared with the compiled pattern ([`crate::Regex::from_parsed`]): one parse per edit.
    ast: Result<Arc<Ast>, Error>,
    tokens: OnceLock<Vec<(Span, Kind)>>,
    rows: OnceLock<Result<Vec<ExplainRow>, String>>,
    railroad: OnceLock<Result<Vec<String>, String>>,
    /// The railroad diagram wrapped to the last width asked for, with that width.
    railroad_fit: Mutex<Option<(usize, Diagram)>>,
    lints: OnceLock<Vec<Lint>>,
}

impl Analysis {
    /// Parses `key`'s pattern (the one parse; everything else reads the tree).
    pub fn new(key: AnalysisKey) -> Analysis {
        let ast = crate::syntax::parse::parse(&key.pattern, key.flavor, key.flags)
            .map(Arc::new)
            .map_err(Error::from);
        Analysis {
            key,
            ast,
            tokens: OnceLock::new(),
            rows: OnceLock::new(),
            railroad: OnceLock::new(),
            railroad_fit: Mutex::new(None),
            lints: OnceLock::new(),
        }
    }

    /// What this analysis was made for.
    pub fn key(&self) -> &AnalysisKey {
        &self.key
    }

    /// The parse tree, or the parse error.
    pub fn ast(&self) -> Result<&Ast, &Error> {
        self.ast.as_deref()
    }

    /// The parse tree, shared (what [`super::Workbench::compile`] hands the engine), or the
    /// parse error.
    pub fn shared_ast(&self) -> Result<&Arc<Ast>, &Error> {
        self.ast.as_ref()
    }

    /// The syntax colours of the pattern: (span, kind) pairs; none when it does not parse.
    pub fn tokens(&self) -> &[(Span, Kind)] {
        self.tokens.get_or_init(|| match &self.ast {
            Ok(ast) => pattern_tokens(&ast.root, &self.key.pattern),
            Err(_) => Vec::new(),
        })
    }

    /// The explanation as rows (the tree, then the lints), or why there is none.
    pub fn rows(&self) -> &Result<Vec<ExplainRow>, String> {
        self.rows.get_or_init(|| self.explain_rows())
    }

    /// The railroad diagram, or why there is none.
    pub fn railroad(&self) -> &Result<Vec<String>, String> {
        self.railroad.get_or_init(|| {
            let ast = self.ast.as_ref().map_err(|e| e.message.clone())?;
            crate::syntax::railroad::railroad(ast, &self.key.pattern, self.key.flavor)
                .map_err(|e| e.message)
        })
    }

    /// The railroad diagram with its top-level sequence wrapped to fit `width` columns
    /// ([`crate::syntax::railroad::railroad_wrapped`]), or why there is none. The diagram of
    /// the last width asked for is kept, so a pane that draws it on every frame draws it once.
    pub fn railroad_fit(&self, width: usize) -> Diagram {
        let mut kept = self
            .railroad_fit
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((w, lines)) = kept.as_ref()
            && *w == width
        {
            return Arc::clone(lines);
        }
        let lines = Arc::new(match &self.ast {
            Ok(ast) => crate::syntax::railroad::railroad_wrapped(
                ast,
                &self.key.pattern,
                self.key.flavor,
                width,
            )
            .map_err(|e| e.message),
            Err(e) => Err(e.message.clone()),
        });
        *kept = Some((width, Arc::clone(&lines)));
        lines
    }

    /// The lints of the pattern (none when it does not parse).
    pub fn lints(&self) -> &[Lint] {
        self.lints.get_or_init(|| match &self.ast {
            Ok(ast) => lint(ast, &self.key.pattern, self.key.flavor),
            Err(_) => Vec::new(),
        })
    }

    fn explain_rows(&self) -> Result<Vec<ExplainRow>, String> {
        let ast = self.ast.as_ref().map_err(|e| e.message.clone())?;
        let ex = explain(
            ast,
            &self.key.pattern,
            self.key.flavor,
            crate::Limits::human().max_explain_nodes,
        )
        .map_err(|e| e.message)?;
        let mut out: Vec<ExplainRow> = ex
            .lines()
            .into_iter()
            .map(|l| ExplainRow {
                depth: l.depth,
                kind: l.node.kind.clone(),
                text: l.node.text.clone(),
                meaning: l.node.meaning.clone(),
                span: Some(l.node.span),
                highlight: l.node.highlight,
                lint: false,
            })
            .collect();
        for lint in &ex.lints {
            let sev = match lint.severity {
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            out.push(ExplainRow {
                depth: 0,
                kind: format!("{sev}[{}]", lint.code),
                text: String::new(),
                meaning: lint.message.clone(),
                span: lint.span,
                highlight: if lint.severity == Severity::Warning {
                    Kind::Warning
                } else {
                    Kind::Comment
                },
                lint: true,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(p: &str) -> AnalysisKey {
        AnalysisKey {
            pattern: p.into(),
            flavor: Flavor::PYTHON,
            flags: Flags::default(),
        }
    }

    #[test]
    fn rows_list_the_tree_then_the_lints() {
        let a = Analysis::new(key("(a+)+b"));
        let rows = a.rows().as_ref().unwrap();
        assert_eq!(rows[0].text, "(a+)+b");
        assert!(rows.iter().any(|r| r.lint && r.kind.contains("nested")));
        assert!(!a.tokens().is_empty());
        assert!(a.railroad().is_ok());
    }

    #[test]
    fn an_invalid_pattern_has_no_tokens_and_says_why() {
        let a = Analysis::new(key("(a"));
        assert!(a.ast().is_err());
        assert!(a.tokens().is_empty());
        assert!(a.rows().is_err());
        assert!(a.railroad().is_err());
        assert!(a.lints().is_empty());
    }
}
