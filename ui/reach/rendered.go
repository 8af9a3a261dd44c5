package reach

import (
	"errors"
	"reflect"

	"fyne.io/fyne/v2"
)

// ErrNoRenderTree is returned by Rendered for a canvas that does not let
// its drawn tree be walked.
var ErrNoRenderTree = errors.New("reach: the canvas does not show its drawn tree")

// Rendered returns what each widget of the real window's canvas c draws,
// as the canvas last laid it out. Call it on the UI goroutine.
//
// Fyne keeps a widget's renderer to itself; the desktop and mobile
// canvases walk their tree of drawn objects with a method, WalkTrees,
// whose node type is not exported. Rendered calls it through reflection
// and notes each object's children; a canvas without the method (fyne's
// test canvas, a later fyne) gives ErrNoRenderTree.
func Rendered(c fyne.Canvas) (Inside, error) {
	walkTrees := reflect.ValueOf(c).MethodByName("WalkTrees")
	if !walkTrees.IsValid() || walkTrees.Type().NumIn() != 2 {
		return nil, ErrNoRenderTree
	}
	visit := walkTrees.Type().In(0)
	if visit.Kind() != reflect.Func || visit.NumIn() != 2 {
		return nil, ErrNoRenderTree
	}
	kids := map[fyne.CanvasObject][]fyne.CanvasObject{}
	var stack []fyne.CanvasObject
	objOf := func(node reflect.Value) (fyne.CanvasObject, bool) {
		m := node.MethodByName("Obj")
		if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
			return nil, false
		}
		o, ok := m.Call(nil)[0].Interface().(fyne.CanvasObject)
		return o, ok
	}
	bad := false
	before := reflect.MakeFunc(visit, func(args []reflect.Value) []reflect.Value {
		o, ok := objOf(args[0])
		if !ok {
			bad = true
			return nil
		}
		if n := len(stack); n > 0 {
			kids[stack[n-1]] = append(kids[stack[n-1]], o)
		}
		stack = append(stack, o)
		return nil
	})
	after := reflect.MakeFunc(visit, func([]reflect.Value) []reflect.Value {
		if n := len(stack); n > 0 {
			stack = stack[:n-1]
		}
		return nil
	})
	walkTrees.Call([]reflect.Value{before, after})
	if bad {
		return nil, ErrNoRenderTree
	}
	return func(w fyne.Widget) []fyne.CanvasObject { return kids[w] }, nil
}
