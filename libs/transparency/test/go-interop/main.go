// Command interop checks libs/transparency's output with code nobody on this project wrote:
// golang.org/x/mod/sumdb/note (C2SP signed notes) and github.com/transparency-dev/merkle
// (RFC 6962 hashing, proofs and its reference tree). It reads one JSON request on stdin and
// writes one JSON answer on stdout; go-interop.int.spec.ts drives it.
//
//	interop constants    transparency-dev/merkle's RFC 6962 test constants
//	interop reference    its reference tree's roots and proofs for given leaf hashes
//	interop plans        which tree nodes its proofs read, for given (possibly huge) sizes
//	interop sign         golang.org/x/mod's signature of a note text
//	interop verify       checkpoints, inclusion and consistency proofs; exits 1 if any fails
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"
	"golang.org/x/mod/sumdb/note"
)

type node struct {
	Level uint   `json:"level"`
	Index string `json:"index"`
}

type plan struct {
	IDs   []node `json:"ids"`
	Begin int    `json:"begin"`
	End   int    `json:"end"`
}

type inclusion struct {
	Checkpoint int      `json:"checkpoint"`
	LeafIndex  string   `json:"leafIndex"`
	LeafHash   []byte   `json:"leafHash"`
	Path       [][]byte `json:"path"`
}

type consistency struct {
	From int      `json:"from"`
	To   int      `json:"to"`
	Path [][]byte `json:"path"`
}

type request struct {
	Leaves       [][]byte      `json:"leaves"`
	Inclusion    [][2]string   `json:"inclusionPlans"`
	Consistency  [][2]string   `json:"consistencyPlans"`
	SignerKey    string        `json:"signerKey"`
	Text         string        `json:"text"`
	VerifierKey  string        `json:"verifierKey"`
	Checkpoints  []string      `json:"checkpoints"`
	Inclusions   []inclusion   `json:"inclusions"`
	Consistencys []consistency `json:"consistencies"`
}

type checkpoint struct {
	Size uint64
	Root []byte
}

func main() {
	var req request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		fail(err)
	}
	out := map[string]any{}
	failed := false
	switch os.Args[1] {
	case "constants":
		out["leafInputs"], out["roots"], out["nodeHashes"] = testonly.LeafInputs(), testonly.RootHashes(), testonly.NodeHashes()
	case "reference":
		tree := testonly.New(rfc6962.DefaultHasher)
		tree.Append(req.Leaves...)
		roots, incl, cons := [][]byte{}, map[string][][]byte{}, map[string][][]byte{}
		for n := uint64(0); n <= tree.Size(); n++ {
			roots = append(roots, tree.HashAt(n))
			for i := uint64(0); i < n; i++ {
				incl[fmt.Sprintf("%d/%d", i, n)] = must(tree.InclusionProof(i, n))
			}
			for m := uint64(1); m < n; m++ {
				cons[fmt.Sprintf("%d/%d", m, n)] = must(tree.ConsistencyProof(m, n))
			}
		}
		out["roots"], out["inclusion"], out["consistency"] = roots, incl, cons
	case "plans":
		var incl, cons []plan
		for _, p := range req.Inclusion {
			incl = append(incl, toPlan(must(proof.Inclusion(num(p[0]), num(p[1])))))
		}
		for _, p := range req.Consistency {
			cons = append(cons, toPlan(must(proof.Consistency(num(p[0]), num(p[1])))))
		}
		out["inclusion"], out["consistency"] = incl, cons
	case "sign":
		signer := must(note.NewSigner(req.SignerKey))
		out["note"] = string(must(note.Sign(&note.Note{Text: req.Text}, signer)))
	case "verify":
		failed = verify(req, out)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail(err)
	}
	if failed {
		os.Exit(1)
	}
}

// verify opens each checkpoint with the verifier key, then checks each proof against the sizes
// and roots of the checkpoints it names. One result (an error text, or "") per item.
func verify(req request, out map[string]any) bool {
	failed := false
	check := func(err error) string {
		if err != nil {
			failed = true
			return err.Error()
		}
		return ""
	}
	verifier := must(note.NewVerifier(req.VerifierKey))
	cps, cpErrs := []checkpoint{}, []string{}
	for _, text := range req.Checkpoints {
		cp, err := openCheckpoint(text, verifier)
		cps, cpErrs = append(cps, cp), append(cpErrs, check(err))
	}
	inclErrs, consErrs := []string{}, []string{}
	for _, p := range req.Inclusions {
		cp := cps[p.Checkpoint]
		inclErrs = append(inclErrs, check(proof.VerifyInclusion(rfc6962.DefaultHasher, num(p.LeafIndex), cp.Size, p.LeafHash, p.Path, cp.Root)))
	}
	for _, p := range req.Consistencys {
		a, b := cps[p.From], cps[p.To]
		consErrs = append(consErrs, check(proof.VerifyConsistency(rfc6962.DefaultHasher, a.Size, b.Size, p.Path, a.Root, b.Root)))
	}
	out["checkpoints"], out["inclusions"], out["consistencies"] = cpErrs, inclErrs, consErrs
	return failed
}

// openCheckpoint verifies the note's signature and reads the C2SP tlog-checkpoint body: origin
// (the key's name), decimal size, base64 root hash.
func openCheckpoint(text string, verifier note.Verifier) (checkpoint, error) {
	n, err := note.Open([]byte(text), note.VerifierList(verifier))
	if err != nil {
		return checkpoint{}, err
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] != verifier.Name() {
		return checkpoint{}, fmt.Errorf("not a checkpoint of %s", verifier.Name())
	}
	size, err := strconv.ParseUint(lines[1], 10, 64)
	if err != nil || strconv.FormatUint(size, 10) != lines[1] {
		return checkpoint{}, fmt.Errorf("bad tree size %q", lines[1])
	}
	var root []byte
	if err := json.Unmarshal([]byte(strconv.Quote(lines[2])), &root); err != nil || len(root) != 32 {
		return checkpoint{}, fmt.Errorf("bad root hash %q", lines[2])
	}
	return checkpoint{Size: size, Root: root}, nil
}

func toPlan(n proof.Nodes) plan {
	_, begin, end := n.Ephem()
	p := plan{IDs: []node{}, Begin: begin, End: end}
	for _, id := range n.IDs {
		p.IDs = append(p.IDs, node{Level: id.Level, Index: strconv.FormatUint(id.Index, 10)})
	}
	return p
}

func num(s string) uint64 {
	return must(strconv.ParseUint(s, 10, 64))
}

func must[T any](v T, err error) T {
	if err != nil {
		fail(err)
	}
	return v
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "interop:", err)
	os.Exit(2)
}
